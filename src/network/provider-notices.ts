/**
 * The door an upstream provider's notices come in by. The HTTP route that receives them
 * (src/http/routes/network/receive-provider-notice.route.ts) and the provider adapter, which registers
 * the path and verifies each notice (src/network/provider/notice-signature.ts), agree on these; both
 * import them from here, so the route never reaches into the adapter's folder.
 */

/** Where the provider sends its notices, under PUBLIC_URL (the adapter registers that URL with it). */
export const NOTICE_PATH = '/network/provider/webhooks';

/** A notice whose signature or timestamp does not hold: answered 401, nothing changed. */
export class NoticeRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NoticeRefused';
  }
}

/** A correctly signed notice that is not a JSON object: answered 400, nothing changed. */
export class NoticeUnreadable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NoticeUnreadable';
  }
}
