/** A pull-based reader of a text's lines, numbered from 1; a file's (LineReader) or a string's (TextLines). */
export interface Lines {
  /** The next line without its newline (and a trailing `\r`), or undefined at the end. */
  next(): string | undefined;
  /** 1-based number of the line last returned. */
  readonly lineNumber: number;
  close(): void;
}

/** The lines of a text already in memory (an upload in a browser), read as LineReader reads a file. */
export class TextLines implements Lines {
  lineNumber = 0;
  private readonly text: string;
  private pos = 0;

  constructor(text: string) {
    this.text = text;
  }

  next(): string | undefined {
    if (this.pos >= this.text.length) return undefined;
    let end = this.text.indexOf('\n', this.pos);
    if (end < 0) end = this.text.length;
    const line = this.text.slice(this.pos, end);
    this.pos = end + 1;
    this.lineNumber++;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }

  close(): void {
    this.pos = this.text.length;
  }
}
