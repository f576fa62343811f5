import { teams } from '../../db/schema/teams.ts';
