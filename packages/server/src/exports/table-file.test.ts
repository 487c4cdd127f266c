import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { tableBuffer, tableStream, type TableCell } from './table-file.js';

const columns = [
  { field: 'name', label: 'Name' },
  { field: 'n', label: 'Number' },
];

async function* rowsOf(rows: Record<string, TableCell>[]) {
  for (const r of rows) yield r;
}

describe('table files', () => {
  it('writes CSV with the labels as header and quotes what needs it', async () => {
    const buf = await tableBuffer('csv', columns, rowsOf([{ name: 'Ada, "Countess"', n: 1 }, { name: null, n: 2.5 }]));
    expect(buf.toString('utf8')).toBe('Name,Number\n"Ada, ""Countess""",1\n,2.5\n');
  });

  it('writes an XLSX that exceljs reads back cell for cell', async () => {
    const buf = await tableBuffer('xlsx', columns, rowsOf([{ name: 'Ada', n: 1 }, { name: 'Grace', n: 2, extra: 'dropped' }]), 'People');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(buf as unknown as ExcelJS.Buffer);
    const sheet = book.getWorksheet('People');
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Name', 'Number']);
    expect(sheet?.getRow(3).values).toEqual([undefined, 'Grace', 2]);
    expect(sheet?.rowCount).toBe(3);
  });

  it('passes a failing row source on as a stream error', async () => {
    async function* broken() {
      yield { name: 'a', n: 1 };
      throw new Error('read failed');
    }
    const reader = tableStream('csv', columns, broken()).getReader();
    await expect((async () => { for (;;) if ((await reader.read()).done) return; })()).rejects.toThrow('read failed');
  });
});
