import sqlite3

from shop.db.orders import get_order


def test_get_order_missing() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE orders (id INTEGER, customer TEXT, total INTEGER)")
    assert get_order(conn, 1) is None
