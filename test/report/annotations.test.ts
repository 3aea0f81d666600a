import { describe, expect, it } from '@jest/globals';
import {
  type Annotation,
  renderAnnotations,
  workflowCommand,
} from '../../src/report/render-annotations.js';
import { BLOCK, POLICY_CHANGE, UNPARSABLE } from './sample-reports.js';

/** How the Actions runner reads a `::command props::data` line (ActionCommand.TryParseV2). */
function parseCommand(
  line: string,
): { command: string; properties: Record<string, string>; data: string } | null {
  const trimmed = line.trimStart();
  if (!trimmed.startsWith('::')) return null;
  const end = trimmed.indexOf('::', 2);
  if (end < 0) return null;
  const [command = '', props = ''] = trimmed.slice(2, end).split(/ (.*)/s);
  const decode = (value: string) =>
    value
      .replace(/%3A/g, ':')
      .replace(/%2C/g, ',')
      .replace(/%0D/g, '\r')
      .replace(/%0A/g, '\n')
      .replace(/%25/g, '%');
  const properties = Object.fromEntries(
    props
      .split(',')
      .filter((p) => p !== '')
      .map((p) => {
        const at = p.indexOf('=');
        return [p.slice(0, at), decode(p.slice(at + 1))];
      }),
  );
  return { command, properties, data: decode(trimmed.slice(end + 2)) };
}

const HOSTILE: Annotation = {
  level: 'error',
  file: '::add-mask::x',
  startLine: 3,
  endLine: 4,
  title: '::stop-commands::z',
  message: '::error file=a::pwn',
};

describe('renderAnnotations', () => {
  it('annotates new and worsened findings, blocking ones as errors, and leaves baseline out', () => {
    expect(renderAnnotations(BLOCK).map((a) => [a.level, a.file, a.startLine, a.endLine])).toEqual([
      ['error', 'src/engine.ts', 3, 615],
      ['error', '.aureus/policy.yaml', 1, 1],
      ['warning', 'src/shape.ts', 1, 4],
    ]);
    expect(renderAnnotations(BLOCK)[0]?.title).toBe('AUREUS god_class (new)');
  });

  it('puts a finding at one place of a line (a syntax error) at its column', () => {
    expect(renderAnnotations(UNPARSABLE)).toEqual([
      expect.objectContaining({
        level: 'error',
        file: 'src/engine.ts',
        startLine: 18,
        endLine: 18,
        startColumn: 15,
        title: 'AUREUS unparsable_file (new)',
      }),
    ]);
    expect(renderAnnotations(BLOCK).some((annotation) => 'startColumn' in annotation)).toBe(false);
  });

  it('adds a notice on the policy file when the change edits the policy', () => {
    expect(renderAnnotations(POLICY_CHANGE)).toEqual([
      expect.objectContaining({
        level: 'notice',
        file: '.aureus/policy.yaml',
        title: 'AUREUS policy change — needs maintainer approval',
      }),
    ]);
  });
});

describe('workflowCommand', () => {
  it('writes the annotation as one ::level command', () => {
    const [annotation] = renderAnnotations(BLOCK);
    expect(annotation && workflowCommand(annotation)).toBe(
      '::error file=src/engine.ts,line=3,endLine=615,title=AUREUS god_class (new)::Class Engine has 612 lines of code, more than 500.',
    );
  });

  it('writes the column of an annotation at one place', () => {
    const [annotation] = renderAnnotations(UNPARSABLE);
    const line = annotation === undefined ? '' : workflowCommand(annotation);
    expect(line.startsWith('::error file=src/engine.ts,line=18,endLine=18,col=15,title=')).toBe(
      true,
    );
    expect(parseCommand(line)?.properties).toMatchObject({ line: '18', col: '15' });
  });

  it('encodes a file named ::add-mask::x, a title ::stop-commands::z and a message ::error file=a::pwn', () => {
    const line = workflowCommand(HOSTILE);
    expect(line).toBe(
      '::error file=%3A%3Aadd-mask%3A%3Ax,line=3,endLine=4,title=%3A%3Astop-commands%3A%3Az::::error file=a::pwn',
    );
    expect(parseCommand(line)).toEqual({
      command: 'error',
      properties: { file: '::add-mask::x', line: '3', endLine: '4', title: '::stop-commands::z' },
      data: '::error file=a::pwn',
    });
  });

  it('keeps line breaks, percent signs and commas from starting a new command or property', () => {
    const line = workflowCommand({
      ...HOSTILE,
      file: 'a,line=9\n::add-mask::y',
      message: '100%\r\n::add-mask::secret',
    });
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toBe(
      // A CR would overwrite the line in the log: it is shown escaped, the line break encoded.
      '::error file=a%2Cline=9%0A%3A%3Aadd-mask%3A%3Ay,line=3,endLine=4,title=%3A%3Astop-commands%3A%3Az::100%25\\u000D%0A::add-mask::secret',
    );
    expect(parseCommand(line)?.properties.line).toBe('3');
  });
});
