"""A real SMTP server for the e-mail tests (issue #37): aiosmtpd on 127.0.0.1:PORT, writing
each message it accepts as one JSON line (envelope, decoded subject, headers, text and HTML
parts) to PATH. Recipients at busy.example are refused for now (451, to be retried), at
gone.example for good (550). Prints "ready" once listening; runs until killed.

Usage: python3 smtp_sink.py PORT PATH   (pip install 'aiosmtpd>=1.4,<2')
"""

import email
import json
import sys
import threading
from email import policy

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.endswith("@busy.example"):
            return "451 4.3.2 try again later"
        if address.endswith("@gone.example"):
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=policy.default)
        text = msg.get_body(preferencelist=("plain",))
        html = msg.get_body(preferencelist=("html",))
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "to": str(msg["to"]),
            "subject": str(msg["subject"]),
            "message_id": str(msg["message-id"]),
            "list_unsubscribe": str(msg["list-unsubscribe"]),
            "list_unsubscribe_post": str(msg["list-unsubscribe-post"]),
            "content_type": msg.get_content_type(),
            "text": text.get_content() if text is not None else None,
            "html": html.get_content() if html is not None else None,
        }
        with self.lock, open(self.path, "a", encoding="utf-8") as out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        return "250 OK"


def main():
    port, path = int(sys.argv[1]), sys.argv[2]
    controller = Controller(Sink(path), hostname="127.0.0.1", port=port)
    controller.start()
    print("ready", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
