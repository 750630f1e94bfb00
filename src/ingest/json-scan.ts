import { badInput, unsupportedMediaType, type ErrorDetail } from '../errors';

/**
 * An incremental scan of JSON bytes as they arrive, before anything parses them: it tracks strings
 * and brackets only (no values are built), so a body of any shape costs linear time in small
 * steps, one chunk at a time, and nesting is refused before `JSON.parse` could build a deep tree.
 *
 * - `single`: one document; nesting deeper than `maxDepth` throws BAD_INPUT NESTING_TOO_DEEP at
 *   once, with the path of the first value too deep (`run.facets.x.v[0][0]…`, cut at 120
 *   characters), so the caller stops reading the body.
 * - `batch`: a top-level array of events, or the array under the top-level key `events`; the byte
 *   range of each element is recorded, and an element nested deeper than `maxDepth` (counted from
 *   the element) is marked with its own NESTING_TOO_DEEP: only that element fails.
 * Grammar beyond strings and brackets is left to `JSON.parse` of the document or of each element.
 * Structural damage the scan sees (text after the document, a stray closing bracket, a document
 * that ends early) is BAD_INPUT 415, as for a body that is not JSON.
 * Works on UTF-8 bytes: JSON's structural characters are ASCII, which never occur inside a
 * multi-byte sequence.
 */
export interface ScannedElement {
  start: number;
  end: number;
  /** Set when the element is refused by the scan itself (its nesting). */
  error?: ErrorDetail;
}

interface Frame {
  array: boolean;
  /** The key of the value being read (objects): its raw bytes (escapes kept, at most MAX_KEY_BYTES) in `keyBytes[0, keyLength)`, decoded only when a path is written; -1: none yet. */
  keyBytes: Uint8Array;
  keyLength: number;
  /** The index of the value being read (arrays). */
  index: number;
}

/**
 * The open brackets, innermost last. A frame and its key buffer are made once per depth and
 * reused by every bracket opened there, so scanning a body allocates nothing per object or key.
 */
class Frames {
  private readonly pool: Frame[] = [];
  length = 0;

  at(depth: number): Frame | undefined {
    return depth < this.length ? this.pool[depth] : undefined;
  }

  top(): Frame | undefined {
    return this.at(this.length - 1);
  }

  push(array: boolean): void {
    const f = (this.pool[this.length] ??= { array, keyBytes: new Uint8Array(MAX_KEY_BYTES), keyLength: -1, index: 0 });
    f.array = array;
    f.keyLength = -1;
    f.index = 0;
    this.length++;
  }

  /** False when nothing was open. */
  pop(): boolean {
    if (this.length === 0) return false;
    this.length--;
    return true;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_PATH = 120;
const MAX_KEY_BYTES = 256;

export class JsonScanner {
  readonly elements: ScannedElement[] = [];
  /** Bytes scanned so far. */
  offset = 0;
  private readonly frames = new Frames();
  /** Brackets opened past the depth limit (no frames kept for them). */
  private excess = 0;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  /** Inside a key's string (tracked at depths within the limit). */
  private inKey = false;
  /** Where the key's bytes start in the current chunk (0 when it began in an earlier one). */
  private keyStart = 0;
  /** The key's bytes from earlier chunks (a key split by a chunk boundary). */
  private keyCarry: Uint8Array | null = null;
  /** The next backslash and quote at or after the scan position in the current chunk (its length: none); -1: not looked for yet. */
  private nextBackslash = -1;
  private nextQuote = -1;
  /** Frames depth of the batch's array (its elements are one deeper); 0 until found. */
  private containerDepth = 0;
  private element: ScannedElement | null = null;
  private elementHasContent = false;
  private topClosed = false;
  private topStarted = false;
  private batchFound = false;
  /** A comma at the batch's level not yet followed by an element. */
  private afterComma = false;

  constructor(
    private readonly mode: 'single' | 'batch',
    private readonly maxDepth: number,
  ) {}

  /** Whether the batch's array was found (false: the top level is something else). */
  get foundBatch(): boolean {
    return this.batchFound;
  }

  push(chunk: Uint8Array): void {
    const base = this.offset;
    let i = 0;
    this.nextBackslash = -1;
    this.nextQuote = -1;
    this.keyStart = 0;
    // A byte-order mark before the document is not JSON (decodeUtf8 drops it).
    if (base === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    for (; i < chunk.length; i++) {
      if (this.inString) {
        i = this.skipString(chunk, i);
        continue;
      }
      const b = chunk[i]!;
      if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
      if (this.topClosed) throw unsupportedMediaType('the request body is not valid JSON (text after the document)');
      this.topStarted = true;
      if (b !== 0x5d && b !== 0x7d && b !== 0x2c) this.markContent(base + i);
      if (b === QUOTE) {
        this.inString = true;
        this.inKey = this.expectKey && this.excess === 0;
        this.keyStart = i + 1;
        this.keyCarry = null;
        continue;
      }
      if (b === 0x7b || b === 0x5b) {
        this.open(b === 0x5b);
      } else if (b === 0x7d || b === 0x5d) {
        this.close(base + i);
      } else if (b === 0x2c) {
        this.comma(base + i);
      } else if (b === 0x3a) {
        this.expectKey = false;
      }
    }
    this.offset = base + chunk.length;
  }

  /** Checks that the document is complete; throws BAD_INPUT (415) when it is not. */
  end(): void {
    if (this.inString || this.frames.length > 0 || this.excess > 0 || !this.topStarted) {
      throw unsupportedMediaType('the request body is not valid JSON (it ends inside a string or a bracket, or is empty)');
    }
  }

  /**
   * Inside a string from `i`: returns the index of its closing quote (or the chunk's last index).
   * Jumps from one quote or backslash to the next (Buffer.indexOf), so a long string costs no
   * per-byte JavaScript; each is looked for once per chunk position, never again over the same
   * bytes, so a chunk costs linear time whatever it holds (a string of `\\a` repeated included).
   */
  private skipString(chunk: Uint8Array, i: number): number {
    for (; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.escaped) {
        this.escaped = false;
        continue;
      }
      if (b === BACKSLASH) {
        this.escaped = true;
        continue;
      }
      if (b === QUOTE) {
        this.inString = false;
        if (this.inKey) this.endKey(chunk, i);
        return i;
      }
      if (this.nextBackslash < i) {
        const s = (chunk as Buffer).indexOf(BACKSLASH, i);
        this.nextBackslash = s < 0 ? chunk.length : s;
      }
      if (this.nextQuote < i) {
        const q = (chunk as Buffer).indexOf(QUOTE, i);
        this.nextQuote = q < 0 ? chunk.length : q;
      }
      const next = Math.min(this.nextQuote, this.nextBackslash);
      if (next >= chunk.length) break;
      i = next - 1;
    }
    if (this.inKey) this.carryKey(chunk.subarray(this.keyStart));
    return chunk.length - 1;
  }

  /** The key's string closed at `end`: it names the value that follows in the object on top. */
  private endKey(chunk: Uint8Array, end: number): void {
    const top = this.frames.top();
    if (top && !top.array) {
      let n = 0;
      if (this.keyCarry) {
        top.keyBytes.set(this.keyCarry);
        n = this.keyCarry.length;
      }
      for (let i = this.keyStart; i < end && n < MAX_KEY_BYTES; i++) top.keyBytes[n++] = chunk[i]!;
      top.keyLength = n;
    }
    this.inKey = false;
    this.keyCarry = null;
    this.expectKey = false;
  }

  /** Keeps a copy (never a view that would hold the chunk) of the key's bytes so far. */
  private carryKey(bytes: Uint8Array): void {
    this.keyCarry = this.keyCarry ? concat(this.keyCarry, bytes) : new Uint8Array(bytes.subarray(0, MAX_KEY_BYTES));
  }

  private open(array: boolean): void {
    if (this.excess > 0) {
      this.excess++;
      return;
    }
    const depth = this.frames.length + 1 - this.containerDepth;
    if (depth > this.maxDepth) {
      const detail = { path: this.path(), message: `nesting deeper than ${this.maxDepth} levels`, reason: 'NESTING_TOO_DEEP' };
      if (this.mode === 'single' || !this.element) throw badInput(`invalid OpenLineage event: ${detail.message}`, [detail]);
      this.element.error ??= detail;
      this.excess = 1;
      return;
    }
    this.frames.push(array);
    this.expectKey = !array;
    if (this.mode === 'batch' && this.containerDepth === 0 && array) {
      const parent = this.frames.at(this.frames.length - 2);
      if (this.frames.length === 1 || (this.frames.length === 2 && parent && !parent.array && parent.keyLength >= 0 && keyOf(parent) === 'events')) {
        this.containerDepth = this.frames.length;
        this.batchFound = true;
        this.element = null;
      }
    }
  }

  private close(at: number): void {
    if (this.excess > 0) {
      this.excess--;
      return;
    }
    if (this.frames.length === this.containerDepth) {
      // A trailing comma (`[1,]`) leaves an empty element, which fails to parse.
      if (this.afterComma && !this.element) this.elements.push({ start: at, end: at });
      this.finishElement(at);
      this.afterComma = false;
    }
    if (!this.frames.pop()) throw unsupportedMediaType('the request body is not valid JSON (a closing bracket without its opening one)');
    if (this.frames.length === 0) this.topClosed = true;
    if (this.frames.length < this.containerDepth) this.containerDepth = -1;
  }

  private comma(at: number): void {
    if (this.excess > 0) return;
    const top = this.frames.top();
    if (!top) throw unsupportedMediaType('the request body is not valid JSON (a comma outside any bracket)');
    if (top.array) top.index++;
    else this.expectKey = true;
    if (this.frames.length === this.containerDepth) {
      // An empty element (`[1,,2]`, `[1,]`) is an element that fails to parse.
      if (!this.element) this.elements.push({ start: at, end: at });
      else this.finishElement(at);
      this.afterComma = true;
    }
  }

  /** A significant byte at `at`: opens an element when it is the first inside the batch's array after `[` or `,`. */
  private markContent(at: number): void {
    if (this.mode !== 'batch' || this.containerDepth <= 0 || this.frames.length !== this.containerDepth || this.excess > 0) return;
    if (!this.element) {
      this.element = { start: at, end: at };
      this.elementHasContent = true;
      this.afterComma = false;
    }
  }

  private finishElement(at: number): void {
    if (this.element && this.elementHasContent) {
      this.element.end = at;
      this.elements.push(this.element);
    }
    this.element = null;
    this.elementHasContent = false;
  }

  /** The path of the value being opened, relative to the element in batch mode (as validate.ts writes paths). */
  private path(): string {
    let out = '';
    const from = this.containerDepth > 0 ? this.containerDepth : 0;
    for (let d = from; d < this.frames.length && out.length <= MAX_PATH; d++) {
      const f = this.frames.at(d)!;
      if (f.array) out += `[${f.index}]`;
      else if (f.keyLength >= 0) out += out.length === 0 ? keyOf(f) : `.${keyOf(f)}`;
    }
    return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
  }
}

function keyOf(f: Frame): string {
  const raw = Buffer.from(f.keyBytes.buffer, f.keyBytes.byteOffset, f.keyLength).toString('utf8');
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** `a` then `b`, at most MAX_KEY_BYTES. */
function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.min(MAX_KEY_BYTES, a.length + b.length));
  out.set(a.subarray(0, out.length));
  if (a.length < out.length) out.set(b.subarray(0, out.length - a.length), a.length);
  return out;
}
