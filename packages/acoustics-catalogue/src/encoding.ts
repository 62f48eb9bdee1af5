/** Reading bytes as text: documents, CSV files and their headers are UTF-8 (a byte order mark is allowed). */
import { isUtf8 } from 'node:buffer';

/** Where text could not be read, and why; the caller places it (a JSON pointer or a CSV line). */
export interface EncodingProblem {
  /** The first byte that is not UTF-8 (absent for a UTF-16 file); column counts characters. */
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

const REPLACEMENT = 0xfffd;

/**
 * Refuses, as a TypeError saying what to pass, an input that is neither text nor bytes: a parsed document handed
 * to a reader of text (readCatalogue(JSON.parse(text))), or nothing at all.
 */
export function assertTextOrBytes(input: unknown, what: string): asserts input is string | Uint8Array {
  if (typeof input === 'string' || input instanceof Uint8Array) return;
  const got =
    input === null
      ? 'null'
      : Array.isArray(input)
        ? 'an array'
        : typeof input === 'object'
          ? 'an object'
          : typeof input;
  throw new TypeError(
    `the ${what} must be given as text (a string) or bytes (a Uint8Array, such as a Buffer); got ${got}${
      what === 'document' && typeof input === 'object' && input !== null
        ? ' (an already parsed document goes to checkCatalogueValue)'
        : ''
    }`,
  );
}

/**
 * Decodes bytes as UTF-8 and drops a leading byte order mark. Bytes that are not UTF-8 (a file saved as
 * UTF-16, Latin-1 or Windows-1252) are a problem rather than text with U+FFFD where each letter was, which
 * would be read, converted and written on without a word.
 */
export function decodeText(input: string | Uint8Array, what: string): string | EncodingProblem {
  if (typeof input === 'string') return input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return {
      message: `the ${what} is UTF-16 (it starts with a UTF-16 byte order mark); save it as UTF-8 and run again`,
    };
  const text = bytes.toString('utf8');
  if (!isUtf8(bytes)) {
    // The first U+FFFD that the bytes do not spell out themselves marks the first byte that is not UTF-8.
    let offset = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.codePointAt(i)!;
      if (
        code === REPLACEMENT &&
        !(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)
      ) {
        const before = text.slice(0, i);
        const line = before.split('\n').length;
        const column = i - before.lastIndexOf('\n');
        const hex = bytes[offset].toString(16).toUpperCase().padStart(2, '0');
        return {
          line,
          column,
          message: `byte 0x${hex} is not UTF-8 (a file saved as Latin-1 or Windows-1252 reads so); save the ${what} as UTF-8 and run again`,
        };
      }
      offset += Buffer.byteLength(String.fromCodePoint(code));
      if (code > 0xffff) i++;
    }
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
