import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { attachmentDisposition, checkKey, checkPrefix, checkRange, ObjectNotFoundError, type ObjectLocation, type ObjectStore } from './store.ts';

export interface S3StoreOptions {
  /** Unset for AWS itself; the URL of any other S3-compatible service (MinIO, R2, Scaleway...). */
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket in the path (`host/bucket/key`) rather than the host name: what most self-hosted services need. */
  forcePathStyle: boolean;
}

/** Parts of 8 MB, two in flight: an upload holds about 16 MB whatever the world's size. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** S3 refuses presigned URLs valid longer than 7 days. */
const MAX_EXPIRES_SEC = 7 * 24 * 3600;

function status(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

function expires(expiresSec: number): number {
  if (!Number.isSafeInteger(expiresSec) || expiresSec < 1 || expiresSec > MAX_EXPIRES_SEC) throw new RangeError(`expiresSec=${expiresSec}: expected 1 to ${MAX_EXPIRES_SEC} seconds`);
  return expiresSec;
}

/** Objects in one bucket of an S3-compatible service; outside writers and readers get presigned URLs. */
export class S3Store implements ObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // The SDK's default CRC32 trailers (aws-chunked bodies) are refused by many S3-compatible
      // services, and would be signed into presigned PUTs that a plain HTTP client cannot honour.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: NodeJS.ReadableStream): Promise<{ sizeBytes: number; sha256: string }> {
    checkKey(key);
    const hash = createHash('sha256');
    let sizeBytes = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        sizeBytes += chunk.length;
        done(null, chunk);
      },
    });
    // leavePartsOnError false: a failed multipart upload is aborted, so its parts are not billed
    // and no object appears (S3 only makes the object on CompleteMultipartUpload).
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: measure }, partSize: PART_SIZE, queueSize: QUEUE_SIZE, leavePartsOnError: false });
    // A failed body destroys `measure` (pipeline), which fails the upload, which aborts its
    // multipart upload. A failed upload stops reading, so `measure` is destroyed too, or the body
    // would wait on back-pressure for ever.
    // The first failure is the cause; the other side's ("aborted", a refused abort) follows from it.
    const failures: unknown[] = [];
    const uploading = upload.done().catch((err: unknown) => {
      failures.push(err);
      measure.destroy(err instanceof Error ? err : new Error(String(err)));
    });
    const feeding = pipeline(body, measure).catch((err: unknown) => void failures.push(err));
    await Promise.all([feeding, uploading]);
    if (failures.length > 0) throw failures[0];
    return { sizeBytes, sha256: hash.digest('hex') };
  }

  async stat(key: string): Promise<{ sizeBytes: number } | null> {
    checkKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { sizeBytes: head.ContentLength ?? 0 };
    } catch (err) {
      if (status(err) === 404) return null;
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream> {
    checkKey(key);
    if (range) checkRange(range);
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
      if (!(got.Body instanceof Readable)) throw new Error(`GetObject "${key}" gave no Node stream`);
      return got.Body;
    } catch (err) {
      if (status(err) === 404) throw new ObjectNotFoundError(key);
      if (status(err) === 416) throw new RangeError(`Range ${range?.start}-${range?.end} starts past the end of "${key}"`);
      throw err;
    }
  }

  async writeLocation(key: string, expiresSec: number): Promise<ObjectLocation> {
    checkKey(key);
    const url = await getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expires(expiresSec) });
    return { kind: 'url', url, method: 'PUT', headers: {} };
  }

  /** Nothing to move (the PUT made the object); the size is read back, and a writer that never wrote is told so. */
  async commitWrite(key: string): Promise<{ sizeBytes: number }> {
    const st = await this.stat(key);
    if (st === null) throw new ObjectNotFoundError(key);
    return st;
  }

  async readLocation(key: string, expiresSec: number): Promise<ObjectLocation> {
    if ((await this.stat(key)) === null) throw new ObjectNotFoundError(key);
    const url = await getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expires(expiresSec) });
    return { kind: 'url', url, method: 'GET', headers: {} };
  }

  async downloadUrl(key: string, filename: string, expiresSec: number): Promise<string> {
    checkKey(key);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key, ResponseContentDisposition: attachmentDisposition(filename) }), {
      expiresIn: expires(expiresSec),
    });
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    // S3's DeleteObject already succeeds for an absent key.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async discard(key: string): Promise<void> {
    await this.delete(key);
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: key, ...(keyMarker ? { KeyMarker: keyMarker } : {}), ...(uploadIdMarker ? { UploadIdMarker: uploadIdMarker } : {}) }),
      );
      for (const upload of page.Uploads ?? []) {
        // The prefix also finds longer keys: only this key's uploads go.
        if (upload.Key !== key || !upload.UploadId) continue;
        try {
          await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: upload.UploadId }));
        } catch (err) {
          // Completed or aborted meanwhile: gone either way.
          if (status(err) !== 404) throw err;
        }
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
  }

  async list(prefix: string): Promise<string[]> {
    checkPrefix(prefix);
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  /** Closes the SDK's connection pool (tests, shutdown). */
  destroy(): void {
    this.client.destroy();
  }
}
