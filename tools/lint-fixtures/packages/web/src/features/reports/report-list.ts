import { RiskList } from '../risks/risk-list.ts';
