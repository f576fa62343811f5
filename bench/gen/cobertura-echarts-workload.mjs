// Drives ECharts (resolved from the working directory) through its server-side SVG renderer: one
// chart of each common series and component kind, so c8 sees a realistic share of the library run.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const echarts = await import(pathToFileURL(join(process.cwd(), 'node_modules/echarts/index.js')).href);

const days = Array.from({ length: 30 }, (_, i) => `d${i + 1}`);
const wave = (k) => days.map((_, i) => Math.round(50 + 40 * Math.sin(i / k)));
const base = { title: { text: 'bench' }, tooltip: {}, legend: {}, toolbox: { feature: { saveAsImage: {} } } };
const cartesian = {
  xAxis: { type: 'category', data: days },
  yAxis: { type: 'value' },
  dataZoom: [{}, { type: 'inside' }],
};

const options = [
  {
    ...cartesian,
    series: [{ type: 'line', data: wave(3), smooth: true, areaStyle: {}, markLine: { data: [{ type: 'average' }] } }],
  },
  {
    ...cartesian,
    series: [
      { type: 'bar', data: wave(5), stack: 's', label: { show: true } },
      { type: 'bar', data: wave(2), stack: 's' },
    ],
  },
  {
    ...cartesian,
    visualMap: { min: 0, max: 100 },
    series: [{ type: 'scatter', data: days.map((_, i) => [i, (i * 37) % 100]) }],
  },
  {
    series: [
      { type: 'pie', radius: ['30%', '60%'], data: days.slice(0, 8).map((name, i) => ({ name, value: i + 3 })) },
    ],
  },
  {
    radar: { indicator: days.slice(0, 6).map((name) => ({ name, max: 100 })) },
    series: [{ type: 'radar', data: [{ value: wave(2).slice(0, 6) }] }],
  },
  { series: [{ type: 'gauge', data: [{ value: 62 }], progress: { show: true } }] },
  { series: [{ type: 'funnel', data: days.slice(0, 5).map((name, i) => ({ name, value: 100 - i * 15 })) }] },
  {
    series: [
      {
        type: 'treemap',
        data: days.slice(0, 6).map((name, i) => ({ name, value: i + 1, children: [{ name: `${name}a`, value: 1 }] })),
      },
    ],
  },
  {
    series: [
      {
        type: 'sunburst',
        data: [
          {
            name: 'a',
            children: [
              { name: 'b', value: 3 },
              { name: 'c', value: 4 },
            ],
          },
        ],
      },
    ],
  },
  { series: [{ type: 'tree', data: [{ name: 'root', children: days.slice(0, 5).map((name) => ({ name })) }] }] },
  {
    series: [
      {
        type: 'graph',
        layout: 'circular',
        data: days.slice(0, 6).map((name) => ({ name })),
        links: [{ source: 'd1', target: 'd2' }],
      },
    ],
  },
  {
    series: [
      {
        type: 'sankey',
        data: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
        links: [
          { source: 'a', target: 'b', value: 3 },
          { source: 'b', target: 'c', value: 2 },
        ],
      },
    ],
  },
  { ...cartesian, series: [{ type: 'candlestick', data: days.map((_, i) => [i, i + 4, i - 2, i + 6]) }] },
  {
    ...cartesian,
    series: [{ type: 'boxplot', data: days.slice(0, 5).map((_, i) => [i, i + 2, i + 4, i + 6, i + 9]) }],
  },
  {
    xAxis: { type: 'category', data: days },
    yAxis: { type: 'category', data: ['a', 'b', 'c'] },
    visualMap: { min: 0, max: 10 },
    series: [{ type: 'heatmap', data: days.map((_, i) => [i, i % 3, i % 10]) }],
  },
  {
    parallelAxis: [{ dim: 0 }, { dim: 1 }, { dim: 2 }],
    series: [
      {
        type: 'parallel',
        data: [
          [1, 2, 3],
          [3, 2, 1],
        ],
      },
    ],
  },
  {
    singleAxis: { type: 'time' },
    series: [
      {
        type: 'themeRiver',
        data: [
          ['2024/01/01', 3, 'a'],
          ['2024/01/02', 4, 'a'],
          ['2024/01/01', 2, 'b'],
        ],
      },
    ],
  },
  {
    polar: {},
    angleAxis: { type: 'category', data: days.slice(0, 6) },
    radiusAxis: {},
    series: [{ type: 'bar', coordinateSystem: 'polar', data: wave(2).slice(0, 6) }],
  },
  {
    calendar: { range: '2024-01' },
    visualMap: { min: 0, max: 10 },
    series: [{ type: 'heatmap', coordinateSystem: 'calendar', data: [['2024-01-03', 5]] }],
  },
  {
    ...cartesian,
    series: [
      { type: 'pictorialBar', symbol: 'rect', data: wave(4) },
      { type: 'effectScatter', data: wave(6) },
    ],
  },
];

let bytes = 0;
for (let round = 0; round < 2; round++) {
  for (const option of options) {
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 800, height: 600 });
    chart.setOption({ ...base, ...option });
    bytes += chart.renderToSVGString().length;
    chart.dispose();
  }
}
console.log(`rendered ${options.length * 2} charts, ${bytes} bytes of SVG`);
