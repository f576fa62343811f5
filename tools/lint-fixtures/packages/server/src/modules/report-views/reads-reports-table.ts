// Allowed: report-views is the read side of the reports module (READ_SIDES in check-boundaries).
import { reports } from '../../db/schema/reports.ts';
