/**
 * Where a job's pipeline script is (its config.xml), for the snippets of an upload
 * (snippets.ts) and the answers about the Jenkinsfile.
 */
import path from 'node:path';
import { readText } from './flownodes.js';
import { childOf, isObject, parseXml, rootElement, textOf, type XmlValue } from './xml.js';

/** Where a pipeline's script is: inline in the job's config.xml, or a file of the checkout. */
export interface PipelineScript {
  inline?: string;
  /** Relative to the workspace (`Jenkinsfile` by default for SCM definitions). */
  scriptPath?: string;
}

/**
 * Where a job's pipeline script is, from its config.xml: the inline `<script>` of a
 * CpsFlowDefinition, the `<scriptPath>` of an SCM definition (a multibranch branch's too), or
 * `Jenkinsfile` for a pipeline job that says neither; undefined for a job that is no pipeline.
 */
export function pipelineScriptOf(configXml: string): PipelineScript | undefined {
  const doc = parseXml(configXml);
  const root = doc ? rootElement(doc) : null;
  if (!root) return undefined;
  const definition: XmlValue | undefined = childOf(root.content, 'definition');
  if (isObject(definition)) {
    const script = textOf(definition, 'script');
    if (script !== undefined && script.trim() !== '') return { inline: script };
    const scriptPath = textOf(definition, 'scriptPath');
    return { scriptPath: scriptPath && scriptPath.trim() !== '' ? scriptPath.trim() : 'Jenkinsfile' };
  }
  return root.name === 'flow-definition' ? { scriptPath: 'Jenkinsfile' } : undefined;
}

/** pipelineScriptOf for a job directory; undefined when its config.xml cannot be read (regular files only). */
export async function readPipelineScript(jobDir: string): Promise<PipelineScript | undefined> {
  const text = await readText(path.join(jobDir, 'config.xml'));
  return text === null ? undefined : pipelineScriptOf(text);
}
