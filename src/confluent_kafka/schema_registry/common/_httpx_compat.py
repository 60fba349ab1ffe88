"""The HTTP library: httpx2 (httpx's maintained successor, Python >= 3.10) where installed,
else httpx. Both have the same API."""

try:
    import httpx2 as httpx
except ImportError:  # pragma: no cover - depends on the environment
    import httpx  # type: ignore[no-redef,import-not-found,unused-ignore]

Response = httpx.Response
BasicAuth = httpx.BasicAuth

__all__ = ["httpx", "Response", "BasicAuth"]
