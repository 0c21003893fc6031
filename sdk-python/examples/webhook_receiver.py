"""A webhook endpoint that accepts only deliveries signed with the account's secret (PIX_WEBHOOK_SECRET).

    PIX_WEBHOOK_SECRET=whsec_... /usr/bin/python3 examples/webhook_receiver.py 8080
"""

from __future__ import annotations

import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from pix_account_service import WebhookVerificationError, verify_webhook
from pix_account_service.models import TransactionEvent


class WebhookHandler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        try:
            event = verify_webhook(body, dict(self.headers.items()), os.environ["PIX_WEBHOOK_SECRET"])
        except WebhookVerificationError as error:
            self.send_response(400)
            self.end_headers()
            self.wfile.write(str(error).encode())
            return
        if isinstance(event, TransactionEvent):
            print(event.event, event.transaction_id, event.status, event.final_amount)
        else:
            print(event)
        # Answer fast: a 2xx within the service's timeout, then do the work.
        self.send_response(204)
        self.end_headers()


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8080), WebhookHandler).serve_forever()
