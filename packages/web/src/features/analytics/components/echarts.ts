import { BarChart, LineChart, PieChart } from 'echarts/charts';
import {
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TitleComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

// Only the parts the analytics charts draw, so ECharts stays out of the other chunks.
echarts.use([
  LineChart,
  BarChart,
  PieChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  MarkLineComponent,
  TitleComponent,
  CanvasRenderer,
]);

export { echarts };

/**
 * Users' words (app names, versions, authors) go into rich-text tooltips drawn on the canvas (no HTML:
 * Trusted Types refuse markup); braces and bars are ECharts' style syntax there, so they are left out.
 */
export const plain = (text: string) => text.replace(/[{}|]/g, '');

/** A fraction as a percentage for an axis (one decimal); null stays a gap. */
export const pct = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 10);
