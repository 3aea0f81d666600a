/**
 * The structured logger the App writes to (probot's pino logger in production): one JSON line
 * per message with the delivery, repository and head commit as fields, so a run can be traced.
 */
export interface AppLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}
