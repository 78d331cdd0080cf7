"""The card database: its models, loading, and checks beyond the schema."""
