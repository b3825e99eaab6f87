"""Who may see what."""


def can_view_order(user: dict[str, object], order_customer: str) -> bool:
    """Admins see every order; customers see their own."""
    if user.get("role") == "admin":
        return True
    return user.get("name") == order_customer
