"""A small MCP server: shipping quotes, a tool support-bot does not have.

Run by an MCP client (``support-bot --mcp examples/mcp_servers.json``) or by
hand: ``python examples/mcp_server.py`` speaks MCP on stdin/stdout;
``python examples/mcp_server.py --http`` serves http://127.0.0.1:8000/mcp.
"""

from __future__ import annotations

import sys
from decimal import Decimal
from typing import Annotated, Literal

from springtail import Param, tool
from springtail.mcp import serve

RATES = {"Germany": Decimal("4.50"), "France": Decimal("5.20"), "Spain": Decimal("6.10")}
BASE = Decimal("5.00")


@tool(name="shipping_quote", description="Quote the cost of shipping a parcel to a country.")
def shipping_quote(
    weight_kg: Annotated[Decimal, Param("Parcel weight in kilograms")],
    country: Annotated[Literal["Germany", "France", "Spain"], Param("Destination country")],
) -> str:
    if weight_kg <= 0:
        raise ValueError("weight_kg must be more than 0")
    cost = (BASE + RATES[country] * weight_kg).quantize(Decimal("0.01"))
    return f"Shipping {weight_kg} kg to {country} costs EUR {cost} (2-4 working days)."


if __name__ == "__main__":
    serve([shipping_quote], name="shipping", http="--http" in sys.argv)
