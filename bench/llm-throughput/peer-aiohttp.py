#!/usr/bin/env python3
"""A peer client for bench/llm-throughput: Python asyncio with aiohttp
(Debian's python3-aiohttp), N chat requests with at most C in flight (a
semaphore and one ClientSession whose connector allows C connections), the
same bodies as driver.c --bare. Prints the driver's JSON line."""
import argparse
import asyncio
import json
import sys
import time

import aiohttp


async def main(args):
    url = args.base_url.rstrip("/") + "/chat/completions"
    limit = asyncio.Semaphore(args.concurrency)
    ok = failed = 0
    first_error = None
    connector = aiohttp.TCPConnector(limit=args.concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        async def one(i):
            nonlocal ok, failed, first_error
            body = {"model": "bench-model",
                    "messages": [{"role": "user",
                                  "content": "Request %d of the throughput benchmark: say something." % i}],
                    "temperature": 0.0}
            async with limit:
                try:
                    async with session.post(url, json=body) as reply:
                        data = await reply.json()
                        if reply.status != 200 or not data["choices"][0]["message"]["content"]:
                            raise RuntimeError("HTTP %d" % reply.status)
                        ok += 1
                except Exception as e:  # noqa: BLE001 - counted, first one reported
                    failed += 1
                    first_error = first_error or str(e)

        start = time.monotonic()
        await asyncio.gather(*(one(i) for i in range(args.requests)))
        seconds = time.monotonic() - start
    print(json.dumps({"requests": args.requests, "ok": ok, "failed": failed, "seconds": seconds,
                      "requests_per_second": args.requests / seconds, "http_requests": args.requests,
                      "retries": 0, "first_error": first_error}))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--requests", type=int, default=2000)
    sys.exit(asyncio.run(main(parser.parse_args())))
