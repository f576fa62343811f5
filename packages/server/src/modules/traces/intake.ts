import { ApiError } from '../../errors.ts';
import { decodeJsonExport } from './otlp-json.ts';
import { type DecodedResourceSpans, OtlpDecodeError } from './otlp-model.ts';
import { decodeProtobufExport } from './otlp-proto.ts';
import type { IngestResult, TracesService } from './service.ts';

export type OtlpEncoding = 'protobuf' | 'json';

/**
 * What both OTLP transports share (issue 36): OTLP/HTTP (`routes.ts`) and OTLP/gRPC
 * (`grpc-listener.ts`) resolve the same ingestion token, take a place among the exports in
 * progress, hold the same size limit (after decompression) and decode and write with the same code.
 * Refusals are ApiErrors with an HTTP status; each transport translates them into its own.
 */
export class OtlpIntake {
  constructor(
    readonly traces: TracesService,
    private readonly appIdForToken: (token: string) => Promise<string | null>,
    /** Largest export, in bytes after decompression. */
    readonly limitBytes: number,
  ) {}

  /** The app whose ingestion token this is; 401 without a token or for one no app has. */
  async appOf(token: string | null): Promise<string> {
    if (!token) throw new ApiError(401, 'unauthorized', "Send the app's ingestion token (Authorization: Bearer).");
    const appId = await this.appIdForToken(token);
    if (!appId) throw new ApiError(401, 'unauthorized', 'The token is not an ingestion token of any app.');
    return appId;
  }

  /** A place for one export, or 429 with Retry-After; the returned function gives it back. */
  admit(): () => void {
    return this.traces.admit();
  }

  /** Decodes an export (400 when it cannot be) and writes its valid spans before returning. */
  async ingest(appId: string, body: Buffer, encoding: OtlpEncoding): Promise<IngestResult> {
    let decoded: DecodedResourceSpans[];
    try {
      decoded = encoding === 'protobuf' ? decodeProtobufExport(body) : decodeJsonExport(body);
    } catch (error) {
      if (error instanceof OtlpDecodeError) throw new ApiError(400, 'bad-request', error.message);
      throw error;
    }
    return this.traces.ingest(appId, decoded);
  }
}
