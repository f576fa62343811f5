// `@sextant/cli/testing`: what the server's tests borrow to drive the CLI against a running server.

export { uploadFile } from '../../src/commands/upload.ts';
export { freePort } from './free-port.ts';
export { buildShop, jacocoToolsMissing, startShop } from './jacoco-jvm.ts';
