import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeText, LARGE_XML_BYTES, parseXml, readXmlFile } from './xml.js';

describe('decodeText (ux3, session 42)', () => {
  const body = "<build><userId>josé</userId></build>";
  it('reads the encoding an XML declaration names, a byte order mark, else UTF-8 with Windows-1252 for bytes that are not', () => {
    for (const decl of ['ISO-8859-1', 'iso-8859-1', 'windows-1252', 'latin1']) {
      const text = decodeText(Buffer.from(`<?xml version='1.1' encoding='${decl}'?>\n${body}`, 'latin1'));
      expect(text.endsWith(body)).toBe(true);
    }
    expect(decodeText(Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${body}`, 'utf8')).endsWith(body)).toBe(true);
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]))).toBe(body);
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]))).toBe(body);
    // Declared UTF-8 (or nothing declared) but not UTF-8: Windows-1252, never U+FFFD.
    expect(decodeText(Buffer.from(body, 'latin1'))).toBe(body);
    expect(decodeText(Buffer.from(`<?xml version='1.1' encoding='UTF-8'?>${body}`, 'latin1'))).toContain('josé');
    const shiftJis = decodeText(Buffer.from([...Buffer.from("<?xml version='1.0' encoding='Shift_JIS'?><a>"), 0x83, 0x65, 0x83, 0x58, 0x83, 0x67, ...Buffer.from('</a>')]));
    expect(shiftJis).toContain('<a>テスト</a>');
  });

  it('drops a UTF-8 character cut at the end of a head instead of reading the whole head as Latin-1', () => {
    const bytes = Buffer.from('<build>é€');
    const head = bytes.subarray(0, bytes.length - 1);
    expect(decodeText(head, true)).toBe('<build>é');
    expect(parseXml(decodeText(Buffer.from(`<?xml version='1.1' encoding='ISO-8859-1'?>\n${body}`, 'latin1'))).children[0]?.text).toBe('josé');
  });
});

describe('readXmlFile keeps a large file while it does not change (tt5, session 45)', () => {
  /** A build.xml over LARGE_XML_BYTES: a big action (pruned) and the build's own result. */
  const big = (result: string): string =>
    `<?xml version='1.1' encoding='UTF-8'?>\n<build>\n  <actions>\n    <hudson.plugins.git.util.BuildData>\n${'      <string>refs/remotes/origin/feature</string>\n'.repeat(Math.ceil(LARGE_XML_BYTES / 40))}    </hudson.plugins.git.util.BuildData>\n  </actions>\n  <result>${result}</result>\n</build>\n`;
  const resultOf = (el: Awaited<ReturnType<typeof readXmlFile>>): string | undefined => el?.children.find((c) => c.name === 'result')?.text;
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-xml-kept-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives the same parse for an unchanged file, a new one for a file written since (same size too), none once it is gone', async () => {
    const file = path.join(dir, 'build.xml');
    fs.writeFileSync(file, big('FAILURE'));
    expect(fs.statSync(file).size).toBeGreaterThan(LARGE_XML_BYTES);
    const first = await readXmlFile(file);
    expect(resultOf(first)).toBe('FAILURE');
    expect(await readXmlFile(file)).toBe(first);
    // Rewritten in place with the same size: read again.
    fs.writeFileSync(file, big('SUCCESS'));
    const second = await readXmlFile(file);
    expect(second).not.toBe(first);
    expect(resultOf(second)).toBe('SUCCESS');
    // Replaced by a rename (how Jenkins saves it).
    fs.writeFileSync(`${file}.tmp`, big('ABORTED'));
    fs.renameSync(`${file}.tmp`, file);
    expect(resultOf(await readXmlFile(file))).toBe('ABORTED');
    fs.rmSync(file);
    expect(await readXmlFile(file)).toBeNull();
  });

  it('keeps no small file, and a kept tree cannot be changed by a caller', async () => {
    const small = path.join(dir, 'small.xml');
    fs.writeFileSync(small, '<build><result>SUCCESS</result></build>');
    expect(await readXmlFile(small)).not.toBe(await readXmlFile(small));
    const file = path.join(dir, 'frozen.xml');
    fs.writeFileSync(file, big('FAILURE'));
    const el = await readXmlFile(file);
    const result = el?.children.find((c) => c.name === 'result');
    expect(() => {
      if (result) result.text = 'SUCCESS';
    }).toThrow(TypeError);
    expect(() => el?.children.pop()).toThrow(TypeError);
    expect(resultOf(await readXmlFile(file))).toBe('FAILURE');
  });

  it('a corrupt large file is reported each time, and read again once written', async () => {
    const file = path.join(dir, 'corrupt.xml');
    fs.writeFileSync(file, big('FAILURE').slice(0, -20));
    await expect(readXmlFile(file)).rejects.toThrow(/corrupt/);
    await expect(readXmlFile(file)).rejects.toThrow(/corrupt/);
    fs.writeFileSync(file, big('UNSTABLE'));
    expect(resultOf(await readXmlFile(file))).toBe('UNSTABLE');
  });
});
