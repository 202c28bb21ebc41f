"""What turns reads into referee events: frame sources, the table's layout, the tracker that makes
reads stable card events (``stable``), the watcher that turns those into the record's events
(``watch``), and the live loop (``live``). ``virtual`` renders the demo's table as video."""
