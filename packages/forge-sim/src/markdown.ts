/**
 * A wiki page's content as HTML, the way the instance's render_html answers it, for the Markdown the seeded and
 * created pages hold: headings, paragraphs, bulleted lists, links, code spans, bold and emphasis. Other formats
 * (rdoc, asciidoc, org) are shown as their escaped text in paragraphs.
 */
import type { WikiPage } from './state.js';

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*]+)\*/g, '$1<em>$2</em>');
}

function block(lines: string[]): string {
  const heading = /^(#{1,6})\s+(.*)$/.exec(lines[0]!);
  if (heading && lines.length === 1) {
    const n = heading[1]!.length;
    return `<h${n} dir="auto">${inline(heading[2]!.trim())}</h${n}>`;
  }
  if (lines.every((l) => /^[-*]\s+/.test(l)))
    return `<ul dir="auto">\n${lines.map((l) => `<li>${inline(l.replace(/^[-*]\s+/, ''))}</li>`).join('\n')}\n</ul>`;
  return `<p dir="auto">${lines.map(inline).join('\n')}</p>`;
}

export function renderHtml(content: string, format: WikiPage['format']): string {
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const line of content.split(/\r?\n/)) {
    // A heading is a block of its own in Markdown, even without a blank line after it.
    const heading = format === 'markdown' && /^#{1,6}\s/.test(line);
    if (line.trim() === '' || heading) {
      if (current.length) blocks.push(current);
      current = [];
      if (heading) blocks.push([line]);
    } else current.push(line);
  }
  if (current.length) blocks.push(current);
  return blocks
    .map((b) => (format === 'markdown' ? block(b) : `<p dir="auto">${b.map(escapeHtml).join('\n')}</p>`))
    .join('\n');
}
