export const teamRows = 1;
