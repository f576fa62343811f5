import { RiskList } from '../features/risks/risk-list.ts';
