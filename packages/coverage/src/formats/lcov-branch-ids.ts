/**
 * BRDA block and branch ids. Canonical digits are kept as their number; any other text gets the
 * number -1 - (its index), so ids sort and compare as numbers either way. A `block,branch` pair's
 * text, as written, is one shared string per distinct pair (the same few pairs repeat on every
 * branching line), and that string leads back to its pair when a repeated SF record reopens a file.
 */
export class BranchIds {
  private readonly byText = new Map<string, number>();
  private readonly texts: string[] = [];
  /** Pairs of small numbers by block, then branch, in arrays; other pairs in maps. */
  private readonly smallPairTexts: (string | undefined)[][] = [];
  private readonly pairTexts = new Map<number, Map<number, string>>();
  private readonly pairs = new Map<string, readonly [number, number]>();

  /** The id of one field's text. */
  of(text: string): number {
    if (/^(0|[1-9]\d{0,14})$/.test(text)) return Number(text);
    let id = this.byText.get(text);
    if (id === undefined) {
      id = -1 - this.texts.length;
      this.texts.push(text);
      this.byText.set(text, id);
    }
    return id;
  }

  /** The pair's `block,branch` text (a block never holds a comma, so the first comma splits it). */
  text(block: number, branch: number): string {
    if (block >= 0 && block < 0x10000 && branch >= 0 && branch < 0x100) {
      const rows = this.smallPairTexts;
      // Filled up to the index, never past the end, so the arrays stay dense.
      while (rows.length <= block) rows.push([]);
      const row = rows[block]!;
      while (row.length <= branch) row.push(undefined);
      row[branch] ??= this.newText(block, branch);
      return row[branch];
    }
    let byBranch = this.pairTexts.get(block);
    if (!byBranch) {
      byBranch = new Map();
      this.pairTexts.set(block, byBranch);
    }
    let text = byBranch.get(branch);
    if (text === undefined) {
      text = this.newText(block, branch);
      byBranch.set(branch, text);
    }
    return text;
  }

  private newText(block: number, branch: number): string {
    const text = `${this.fieldText(block)},${this.fieldText(branch)}`;
    this.pairs.set(text, [block, branch]);
    return text;
  }

  /** The ids of a pair text this instance made. */
  pair(text: string): readonly [number, number] {
    const pair = this.pairs.get(text);
    if (!pair) throw new Error(`unknown BRDA id "${text}"`);
    return pair;
  }

  private fieldText(id: number): string {
    return id >= 0 ? String(id) : (this.texts[-1 - id] as string);
  }
}
