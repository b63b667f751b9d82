/** Files the workbench hands the designer: made in the page, saved by the browser (nothing is uploaded). */

export function download(name: string, content: Blob | string, type = 'text/plain'): void {
  const blob = typeof content === 'string' ? new Blob([content], { type: `${type};charset=utf-8` }) : content;
  const url = URL.createObjectURL(blob);
  downloadUrl(name, url);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadUrl(name: string, url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

/** RFC 4180 CSV: every cell quoted where it holds a comma, quote or line break. */
export function csvText(columns: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cell = (value: string | number): string => {
    const text = String(value);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${[columns, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
