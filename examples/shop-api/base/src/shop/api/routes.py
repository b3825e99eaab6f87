"""HTTP routes of the order service."""

import sqlite3

from shop.auth.permissions import can_view_order
from shop.db.orders import get_order, list_orders


def order_detail(conn: sqlite3.Connection, user: dict[str, object], order_id: int) -> dict[str, object]:
    """GET /orders/<id>."""
    row = get_order(conn, order_id)
    if row is None or not can_view_order(user, str(row[1])):
        return {"status": 404}
    return {"status": 200, "order": row}


def my_orders(conn: sqlite3.Connection, user: dict[str, object]) -> dict[str, object]:
    """GET /orders."""
    return {"status": 200, "orders": list_orders(conn, str(user.get("name")))}
