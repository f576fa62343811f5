import { teamRows } from '../teams/repository.ts';
