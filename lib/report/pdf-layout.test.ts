import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { Flow, MARGIN } from '@/lib/report/pdf-layout';

type Drawn = { page: number; text: string; y: number };

/** A flow whose drawn lines are recorded with their page and height. */
async function recorded() {
  const pdf = await PDFDocument.create();
  const drawn: Drawn[] = [];
  const addPage = pdf.addPage.bind(pdf);
  let pages = 0;
  pdf.addPage = ((size?: [number, number]) => {
    const page = addPage(size);
    const index = pages++;
    const drawText = page.drawText.bind(page);
    page.drawText = (text, options) => {
      drawn.push({ page: index, text, y: options?.y ?? 0 });
      drawText(text, options);
    };
    return page;
  }) as typeof pdf.addPage;
  const fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  const flow = new Flow(pdf, fonts);
  const pageOf = (text: string) => drawn.find((d) => d.text === text)?.page;
  return { flow, drawn, pageOf };
}

/** Fills the first page until about `left` points remain above the bottom margin. */
function fillTo(flow: Flow, left: number) {
  while (flow.y - MARGIN.bottom > left + 20) flow.text('Filler line.', { after: 0 });
  flow.space(flow.y - MARGIN.bottom - left);
}

describe('the PDF flow keeps labels with what they label', () => {
  it('moves a heading that would stand alone at the foot of a page to the next, with its first lines', async () => {
    const { flow, pageOf } = await recorded();
    // Room for the heading (about 30 points) but not for it and two lines of its paragraph.
    fillTo(flow, 40);
    flow.heading('Adverse signals', 2);
    flow.text('First line of the section. '.repeat(30));
    flow.finish();
    expect(pageOf('Filler line.')).toBe(0);
    expect(pageOf('Adverse signals')).toBe(1);
  });

  it("moves a heading followed by a table whose first row does not fit (the report's topics)", async () => {
    const { flow, pageOf } = await recorded();
    fillTo(flow, 90);
    flow.heading('Adverse signals', 2);
    flow.table(['Topic', 'Reading'], [['Litigation', 'A long reading of the case. '.repeat(12)]], [1, 4]);
    flow.finish();
    expect([pageOf('Adverse signals'), pageOf('Topic'), pageOf('Litigation')]).toEqual([1, 1, 1]);
  });

  it('leaves a heading where it is when its first lines fit under it', async () => {
    const { flow, pageOf } = await recorded();
    fillTo(flow, 200);
    flow.heading('Adverse signals', 2);
    flow.text('A short paragraph.');
    flow.finish();
    expect(pageOf('Adverse signals')).toBe(0);
    expect(pageOf('A short paragraph.')).toBe(0);
  });

  it("keeps a field's label, and headings held one after another, with the first line after them", async () => {
    const { flow, pageOf } = await recorded();
    fillTo(flow, 20);
    flow.text('Label', { bold: true, keepWithNext: true });
    flow.text('Value');
    // Room for the first heading alone (about 47 points), not for both and a line (about 88).
    fillTo(flow, 80);
    flow.heading('Report', 1);
    flow.heading('Topic', 3);
    flow.text('Under both');
    flow.finish();
    expect([pageOf('Label'), pageOf('Value')]).toEqual([1, 1]);
    expect([pageOf('Report'), pageOf('Topic'), pageOf('Under both')]).toEqual([2, 2, 2]);
  });

  it('starts a table on the page of its first row and repeats its header row on every page it goes on to', async () => {
    const { flow, drawn, pageOf } = await recorded();
    fillTo(flow, 25);
    const rows = Array.from({ length: 80 }, (_, i) => [`row ${i}`, 'value']);
    flow.table(['Name', 'Value'], rows, [1, 1]);
    flow.finish();
    expect(pageOf('Name')).toBe(1);
    expect(pageOf('row 0')).toBe(1);
    const lastPage = drawn.find((d) => d.text === 'row 79')!.page;
    expect(lastPage).toBeGreaterThan(1);
    // Every page with a row has the header, above its first row.
    for (let page = 1; page <= lastPage; page++) {
      const onPage = drawn.filter((d) => d.page === page);
      const header = onPage.find((d) => d.text === 'Name');
      expect(header, `header on page ${page}`).toBeDefined();
      const firstRow = onPage.find((d) => d.text.startsWith('row '))!;
      expect(header!.y).toBeGreaterThan(firstRow.y);
    }
  });

  it('draws a heading with nothing after it at the end', async () => {
    const { flow, pageOf } = await recorded();
    flow.heading('Last words', 1);
    flow.finish();
    expect(pageOf('Last words')).toBe(0);
  });
});
