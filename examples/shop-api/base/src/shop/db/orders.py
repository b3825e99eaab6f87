"""Order storage."""

import sqlite3


def get_order(conn: sqlite3.Connection, order_id: int) -> tuple[object, ...] | None:
    """One order by id."""
    cur = conn.execute("SELECT id, customer, total FROM orders WHERE id = ?", (order_id,))
    return cur.fetchone()


def list_orders(conn: sqlite3.Connection, customer: str) -> list[tuple[object, ...]]:
    """Every order of a customer, newest first."""
    cur = conn.execute(
        "SELECT id, customer, total FROM orders WHERE customer = ? ORDER BY id DESC",
        (customer,),
    )
    return cur.fetchall()
