// axe-core against the jsdom render. Colour contrast needs real layout, so it is left to the
// end-to-end axe scans in Chromium; everything structural (names, roles, labels) runs here.
import axe from 'axe-core';

// axe probes canvas for icon ligatures; jsdom has none, and "no canvas" is the honest answer.
HTMLCanvasElement.prototype.getContext = (() =>
  null) as typeof HTMLCanvasElement.prototype.getContext;

export async function axeViolations(root: Element = document.body): Promise<string[]> {
  const result = await axe.run(root, {
    runOnly: {
      type: 'tag',
      values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
    },
    rules: { 'color-contrast': { enabled: false } },
  });
  return result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}
