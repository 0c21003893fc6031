export interface ErrorSpec {
  status: number;
  /** Developer-facing English text. */
  message: string;
  /** End-user text, in Portuguese. */
  userMessage: string;
  /**
   * Generic errors answer `code: HTTP_ERROR` and no `errorCode`; business errors answer their own
   * code in both `code` and `errorCode`.
   */
  generic?: true;
  /** The envelope's `errorCode` when it differs from the code (decisions 4.4). */
  errorCode?: string;
}
