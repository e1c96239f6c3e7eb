"""TLS on the LAN: the host's certificate, its fingerprint, and the client's known hosts.

A host (``atlantis host``) and a table server (``atlantis serve``) make a self-signed
certificate once (``default_certificate_path``, 0600 in the config folder) and serve every
connection inside TLS with it.  Nobody signs it: a player trusts a host by its SHA-256
fingerprint, which the host prints, shows on its screen and puts in its zeroconf TXT
record.  A client pins the fingerprint it meets first for ``HOST:PORT`` in its known-hosts
file and refuses, with both fingerprints, to talk to that address when it changes (until
told ``accept_new``); a fingerprint announced by zeroconf is checked too.

The check runs after the handshake and before the client sends its first frame: a hello
(and the seat token in it) never goes to a host that failed it.

A table server with worker processes (``netplay.workers``) routes a connection to its
table's worker by the server name the client sends in its ClientHello (SNI, ``sni_name``):
the table id, no secret (the lobby lists it).
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import hashlib
import os
import ssl
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.storage import open_private, private_dir, write_private

CERTIFICATE_FILE = "lan_certificate.pem"
KNOWN_HOSTS_FILE = "known_hosts"
SNI_SUFFIX = ".table.atlantis"


class FingerprintError(ConnectionError):
    """The host's certificate is not the one this client knows for that address (or not
    the one the LAN announcement gave): the message says both, and how to accept it."""


def _config_dir() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("atlantis", appauthor=False))


def default_certificate_path() -> Path:
    return _config_dir() / CERTIFICATE_FILE


def default_known_hosts_path() -> Path:
    return _config_dir() / KNOWN_HOSTS_FILE


def fingerprint_of(der: bytes) -> str:
    """``SHA256:`` and the unpadded base64 of the certificate's SHA-256 (as ssh prints keys)."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(der).digest()).decode().rstrip("=")


# --- the host's side ---------------------------------------------------------------------
@dataclass(frozen=True)
class Certificate:
    """A host's certificate: where it is (key and certificate in one PEM file) and its
    fingerprint."""

    path: Path
    fingerprint: str

    def server_context(self) -> ssl.SSLContext:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_3
        ctx.load_cert_chain(str(self.path))
        return ctx


def make_certificate_pem() -> bytes:
    """A new ECDSA P-256 key and a self-signed certificate for it, valid 100 years (its
    trust is the pinned fingerprint, never its dates or name)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "atlantis LAN host")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=36500))
            .sign(key, hashes.SHA256()))
    return (key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption())
            + cert.public_bytes(serialization.Encoding.PEM))


def load_certificate(path: Path | None = None) -> tuple[Certificate, bool]:
    """The certificate at ``path`` (default: the config folder's), made if missing (0600 in
    a 0700 folder).  Returns it and whether it was made now."""
    path = Path(path) if path is not None else default_certificate_path()
    made = False
    if not path.exists():
        write_private(path, make_certificate_pem())
        made = True
    pem = path.read_text()
    begin = pem.find("-----BEGIN CERTIFICATE-----")
    if begin < 0:
        raise ValueError(f"{path} holds no certificate")
    der = ssl.PEM_cert_to_DER_cert(pem[begin:])
    cert = Certificate(path, fingerprint_of(der))
    cert.server_context()  # (a file that does not load fails here, with its reason)
    return cert, made


# --- the client's side -----------------------------------------------------------------
@dataclass(frozen=True)
class Trust:
    """How a client checks the host it connects to.

    ``plain``: no TLS at all (only for a link that never leaves the machine, such as the
    SSH front's own table server); ``known_hosts``: the pins file (None: the config
    folder's); ``accept_new``: replace the pin of an address whose fingerprint changed;
    ``expected``: the fingerprint the LAN announcement gave (checked as well); ``pin``:
    check and write the known-hosts file (False: only ``expected`` is checked, as the
    LAN browser does for the tables it lists: joining one pins it)."""

    plain: bool = False
    known_hosts: Path | None = None
    accept_new: bool = False
    expected: str | None = None
    pin: bool = True

    def expecting(self, fingerprint: str | None) -> "Trust":
        return replace(self, expected=fingerprint or None)

    def path(self) -> Path:
        return self.known_hosts if self.known_hosts is not None else default_known_hosts_path()


PLAIN = Trust(plain=True)


def client_context() -> ssl.SSLContext:
    """TLS without a certificate authority: the host's certificate is checked by its
    fingerprint (``check_fingerprint``) instead."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


_CLIENT_CONTEXT: ssl.SSLContext | None = None


def shared_client_context() -> ssl.SSLContext:
    global _CLIENT_CONTEXT
    if _CLIENT_CONTEXT is None:
        _CLIENT_CONTEXT = client_context()
    return _CLIENT_CONTEXT


def address_key(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def read_known_hosts(path: Path) -> dict[str, str]:
    """``HOST:PORT FINGERPRINT`` per line (blank lines and ``#`` comments skipped)."""
    known: dict[str, str] = {}
    try:
        text = path.read_text()
    except FileNotFoundError:
        return known
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and not words[0].startswith("#"):
            known[words[0]] = words[1]
    return known


def write_known_hosts(path: Path, known: dict[str, str]) -> None:
    private_dir(path.parent)
    fd = open_private(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    with os.fdopen(fd, "w") as f:
        f.write("# atlantis: the TLS fingerprints of the LAN hosts this player has joined\n")
        for address, fp in sorted(known.items()):
            f.write(f"{address} {fp}\n")


def check_fingerprint(trust: Trust, host: str, port: int, seen: str) -> None:
    """Raise ``FingerprintError`` unless ``seen`` is the fingerprint ``trust`` expects for
    ``host:port``; pin it on first use (and, with ``accept_new``, over a changed one)."""
    where = address_key(host, port)
    if trust.expected is not None and trust.expected != seen:
        raise FingerprintError(
            f"{where} is not the host the LAN announced: its certificate's fingerprint is {seen}, "
            f"the announcement said {trust.expected}. Someone on the network may be impersonating it: "
            "not connecting.")
    if not trust.pin:
        return
    path = trust.path()
    known = read_known_hosts(path)
    old = known.get(where)
    if old == seen:
        return
    if old is not None and not trust.accept_new:
        raise FingerprintError(
            f"THE HOST AT {where} HAS A DIFFERENT CERTIFICATE than when you last joined it "
            f"(known: {old}, now: {seen}). Someone may be listening in between you and the host; "
            "or the host made a new certificate. Ask the host which fingerprint its screen shows; "
            f"if it is {seen}, join again with --accept-new-fingerprint. Not connecting.")
    known[where] = seen
    write_known_hosts(path, known)


def peer_fingerprint(writer: asyncio.StreamWriter) -> str:
    ssl_object = writer.get_extra_info("ssl_object")
    der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
    if not der:
        raise FingerprintError("the host sent no certificate: not connecting.")
    return fingerprint_of(der)


def sni_name(table: str | None) -> str | None:
    """The server name a client sends to reach ``table`` (None: no table named)."""
    if table and len(table) <= 63 and all(c.isascii() and (c.isalnum() or c == "-") for c in table):
        return table.lower() + SNI_SUFFIX
    return None


def table_of_sni(name: str | None) -> str | None:
    if name and name.endswith(SNI_SUFFIX):
        return name[:-len(SNI_SUFFIX)] or None
    return None


async def open_connection(host: str, port: int, trust: Trust, *, table: str | None = None,
                          limit: int = 2 ** 16) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """``asyncio.open_connection`` inside TLS (unless ``trust.plain``), the host's
    fingerprint checked (``check_fingerprint``) before anything is sent.  ``table`` is
    named in SNI (a sharded table server routes on it).  A ``host`` that is a path is the
    Unix socket of the SSH front's own table server, in a folder only its sessions reach."""
    if host.startswith("/"):
        return await asyncio.open_unix_connection(host, limit=limit)
    if trust.plain:
        return await asyncio.open_connection(host, port, limit=limit)
    reader, writer = await asyncio.open_connection(host, port, limit=limit, ssl=shared_client_context(),
                                                   server_hostname=sni_name(table) or "")
    try:
        check_fingerprint(trust, host, port, peer_fingerprint(writer))
    except BaseException:
        writer.transport.abort()
        raise
    return reader, writer


# --- routing on the ClientHello (a sharded table server's front) ---------------------------
MAX_CLIENT_HELLO = 16 * 1024


class ServerNameReader:
    """Reads the server name (SNI) of a connection's ClientHello from bytes peeked off its
    socket, without answering it: the handshake itself is made by whoever is handed the
    socket (``name_of``)."""

    def __init__(self, certificate: Certificate):
        self.context = certificate.server_context()
        self.context.sni_callback = self._seen
        self._names: list[str | None] = []

    def _seen(self, ssl_object: Any, server_name: str | None, context: Any) -> int:
        self._names.append(server_name)
        return ssl.ALERT_DESCRIPTION_HANDSHAKE_FAILURE  # (stop there: nothing is answered)

    def name_of(self, data: bytes) -> tuple[bool, str | None]:
        """``(True, name)`` once ``data`` holds a whole ClientHello (``name``: None when it
        names no server), ``(False, None)`` while it does not; ``ValueError`` when it is no
        TLS ClientHello."""
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        obj = self.context.wrap_bio(incoming, outgoing, server_side=True)
        incoming.write(data)
        self._names.clear()
        try:
            obj.do_handshake()
        except ssl.SSLWantReadError:
            if len(data) >= MAX_CLIENT_HELLO:
                raise ValueError("a ClientHello too big") from None
            return False, None
        except ssl.SSLError:
            if self._names:
                return True, self._names[0]
            raise ValueError("not a TLS ClientHello") from None
        raise ValueError("not a TLS ClientHello")  # pragma: no cover - the callback always stops it


async def peek_server_name(sock: Any, reader: ServerNameReader, timeout: float) -> str | None:
    """The server name of the ClientHello arriving on ``sock`` (a non-blocking socket),
    left unread on it (``MSG_PEEK``); within ``timeout`` seconds."""
    import socket

    loop = asyncio.get_running_loop()
    async with asyncio.timeout(timeout):
        while True:
            readable = loop.create_future()
            loop.add_reader(sock.fileno(), lambda: readable.done() or readable.set_result(None))
            try:
                await readable
            finally:
                loop.remove_reader(sock.fileno())
            data = sock.recv(MAX_CLIENT_HELLO, socket.MSG_PEEK)
            if not data:
                raise ConnectionResetError("closed before its ClientHello")
            whole, name = reader.name_of(data)
            if whole:
                return name
            await asyncio.sleep(0.01)  # (part of it is in: the socket stays readable until the rest)
