// Chart data files read into one table: CSV (RFC 4180: a header row, commas, double-quoted fields
// with "" for a quote, CRLF or LF) or JSON (an array of objects). No CSV package is installed and
// the format is small, so it is read here; every fault names its line (CSV) or item (JSON).

/** Rows beyond this are not chart data but a database export. */
export const MAX_DATA_ROWS = 1000;
const MAX_DATA_COLUMNS = 50;

export interface DataRow {
  /** How messages name the row: "line 4" (CSV) or "item 3" (JSON). */
  where: string;
  cells: ReadonlyMap<string, string | number | null>;
}

export interface DataTable {
  columns: string[];
  rows: DataRow[];
}

export class DataFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFileError';
  }
}

interface CsvRecord {
  line: number;
  fields: string[];
}

function csvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 1;
  const endRecord = () => {
    fields.push(field);
    // A blank line (one empty field) is no record: files often end with one or two.
    if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        field += char;
      }
    } else if (char === '"' && field === '') {
      quoted = true;
      quoteLine = line;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else field += char;
  }
  if (quoted) throw new DataFileError(`line ${quoteLine}: a quoted field is never closed (a " is missing)`);
  endRecord();
  return records;
}

function parseCsv(text: string): DataTable {
  const [header, ...body] = csvRecords(text);
  if (!header) throw new DataFileError('the file is empty; the first line names the columns');
  const columns = header.fields.map((name) => name.trim());
  checkColumns(columns, 'line 1');
  if (body.length > MAX_DATA_ROWS)
    throw new DataFileError(`${body.length} rows, over the limit of ${MAX_DATA_ROWS}`);
  const rows = body.map((record) => {
    if (record.fields.length !== columns.length)
      throw new DataFileError(
        `line ${record.line}: ${record.fields.length} fields, but the header names ${columns.length} columns`,
      );
    return {
      where: `line ${record.line}`,
      cells: new Map(columns.map((name, index) => [name, record.fields[index]!])),
    };
  });
  return { columns, rows };
}

function checkColumns(columns: string[], where: string): void {
  if (columns.length > MAX_DATA_COLUMNS)
    throw new DataFileError(`${where}: ${columns.length} columns, over the limit of ${MAX_DATA_COLUMNS}`);
  const seen = new Set<string>();
  columns.forEach((name, index) => {
    if (name === '') throw new DataFileError(`${where}: column ${index + 1} has no name`);
    if (seen.has(name)) throw new DataFileError(`${where}: the column "${name}" is named twice`);
    seen.add(name);
  });
}

function parseJson(text: string): DataTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DataFileError(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed))
    throw new DataFileError(
      'expected a JSON array of objects, one per row, like [{"month": "Jan", "sales": 12}]',
    );
  if (parsed.length > MAX_DATA_ROWS)
    throw new DataFileError(`${parsed.length} rows, over the limit of ${MAX_DATA_ROWS}`);
  const columns: string[] = [];
  const rows = parsed.map((item: unknown, index) => {
    const where = `item ${index + 1}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new DataFileError(`${where}: expected an object like {"month": "Jan", "sales": 12}`);
    const cells = new Map<string, string | number | null>();
    for (const [name, value] of Object.entries(item)) {
      if (value !== null && typeof value !== 'string' && typeof value !== 'number')
        throw new DataFileError(`${where}, field "${name}": expected a number or a string`);
      if (!columns.includes(name)) columns.push(name);
      cells.set(name, value);
    }
    return { where, cells };
  });
  checkColumns(columns, 'the objects');
  return { columns, rows };
}

/** Reads a data file's text: JSON when the source ends in .json (or the text starts with "["), else CSV. */
export function parseDataTable(src: string, text: string): DataTable {
  const json = /\.json$/i.test(src.split(/[?#]/)[0]!) || /^\s*\[/.test(text);
  try {
    return json ? parseJson(text) : parseCsv(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    if (error instanceof DataFileError) throw new DataFileError(`${src}: ${error.message}`);
    throw error;
  }
}

/** A cell as a number, or a fault naming the row and column. Blank cells are faults too. */
export function numberCell(row: DataRow, column: string, src: string): number {
  const cell = row.cells.get(column);
  const value = typeof cell === 'string' ? Number(cell.trim()) : cell;
  if (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    !(typeof cell === 'string' && cell.trim() === '')
  )
    return value;
  const shown = cell === undefined || cell === null || cell === '' ? 'empty' : JSON.stringify(cell);
  throw new DataFileError(`${src}: ${row.where}, column "${column}": ${shown} is not a number`);
}
