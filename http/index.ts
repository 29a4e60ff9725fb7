/** The HTTP kit both services share (shared/ARCHITECTURE.md): errors, middleware, body, input, logging. */
export * from './errors.js';
export * from './middleware.js';
export * from './body.js';
export * from './validate.js';
export * from './request.js';
export { createLogger, type Logger } from './logger.js';
export * from './depth.js';
export * from './server.js';
