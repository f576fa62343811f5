import { buildApp } from '@sextant/server';
