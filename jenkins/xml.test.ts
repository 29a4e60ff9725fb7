import { decodeText, parseXml } from './xml.js';

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
