import { parseCoverage } from '@sextant/coverage';
