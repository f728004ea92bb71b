/**
 * A help page from one of the project's Markdown documents (docs/rule-options.md), so a director
 * reads the rule options at the server rather than in the source. The documents use only
 * headings, paragraphs, lists, code blocks, tables and inline code; that is all this reads.
 */
import type { Child } from 'hono/jsx';

/** Inline `code` as <code>; everything else as text (escaped by JSX). */
function inline(text: string): Child[] {
  return text.split(/(`[^`]+`)/).map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? <code>{part.slice(1, -1)}</code> : part));
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/** The document's blocks as elements. */
export function markdownBlocks(markdown: string): Child[] {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, '').split('\n');
  const out: Child[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
    } else if (line.startsWith('```')) {
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) code.push(lines[i]!);
      i++;
      out.push(
        <pre tabindex={0}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
    } else if (/^#{1,3} /.test(line)) {
      const level = line.indexOf(' ');
      const text = inline(line.slice(level + 1));
      out.push(level === 1 ? <h1>{text}</h1> : level === 2 ? <h2>{text}</h2> : <h3>{text}</h3>);
      i++;
    } else if (line.startsWith('|')) {
      const rows: string[] = [];
      for (; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!);
      const [head, , ...body] = rows;
      out.push(
        <div class="table-scroll" tabindex={0} role="region" aria-label={`Table: ${cells(head!).join(', ')}`}>
          <table>
            <thead>
              <tr>
                {cells(head!).map((c) => (
                  <th scope="col">{inline(c)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {body.map((row) => (
                <tr>
                  {cells(row).map((c) => (
                    <td>{inline(c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>,
      );
    } else if (line.startsWith('- ')) {
      const items: string[] = [];
      for (; i < lines.length && (lines[i]!.startsWith('- ') || lines[i]!.startsWith('  ')); i++) {
        if (lines[i]!.startsWith('- ')) items.push(lines[i]!.slice(2));
        else items[items.length - 1] += ` ${lines[i]!.trim()}`;
      }
      out.push(
        <ul>
          {items.map((item) => (
            <li>{inline(item)}</li>
          ))}
        </ul>,
      );
    } else {
      const para: string[] = [];
      for (; i < lines.length && lines[i]!.trim() !== '' && !/^(#|- |\||```)/.test(lines[i]!); i++) para.push(lines[i]!.trim());
      out.push(<p>{inline(para.join(' '))}</p>);
    }
  }
  return out;
}

/** The help page: the document, with the way back to the director's desk. */
export function HelpPage({ markdown }: { markdown: string }) {
  return <article class="help-page">{markdownBlocks(markdown)}</article>;
}
