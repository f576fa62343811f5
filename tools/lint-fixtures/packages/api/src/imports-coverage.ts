import { z } from '@sextant/coverage';
