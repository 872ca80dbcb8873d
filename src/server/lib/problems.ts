import { STATUS_CODES } from 'node:http';

export interface FieldError {
  field: string;
  message: string;
}

/** An error the API answers as application/problem+json, with the status it names. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, detail?: string, options: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail ?? STATUS_CODES[status] ?? 'Error');
    this.status = status;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) => new HttpProblem(400, detail, errors ? { errors } : {});
export const unauthorized = (detail = 'A valid bearer token is required') => new HttpProblem(401, detail, { headers: { 'www-authenticate': 'Bearer' } });
export const forbidden = (detail = 'Your account may not use this call') => new HttpProblem(403, detail);
/** Also the answer for another user's resource: never reveal that it exists. */
export const notFound = (what: string) => new HttpProblem(404, `${what} not found`);
export const conflict = (detail: string) => new HttpProblem(409, detail);
export const paymentRequired = (detail: string) => new HttpProblem(402, detail);

export function problemBody(status: number, detail?: string, errors?: FieldError[]) {
  return {
    type: `https://httpstatuses.io/${status}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    ...(detail ? { detail } : {}),
    ...(errors ? { errors } : {}),
  };
}
