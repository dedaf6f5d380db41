// Making untrusted log strings safe to show: terminal control stripping, Markdown and Mermaid escaping.
// (API fixed; implementation owned by the hostile-input work.)

/** Remove C0/C1 control characters and ANSI escape sequences (keeps nothing that moves the cursor). */
export function cleanTerminal(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|[\u0000-\u001f\u007f-\u009f]/g, '');
}

/** Shorten to at most max characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Escape text for one cell of a GitHub Markdown table (pipes, HTML, newlines, backticks). */
export function escapeMarkdownCell(text: string): string {
  return cleanTerminal(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escape text for inline Markdown prose (outside tables). */
export function escapeMarkdown(text: string): string {
  return escapeMarkdownCell(text).replace(/([*_`[\]#])/g, '\\$1');
}

/** Make text safe inside a Mermaid sequenceDiagram message or participant label. */
export function escapeMermaid(text: string): string {
  return cleanTerminal(text).replace(/[;#%{}<>:"`\n\r]/g, ' ');
}
