export const RiskList = 1;
