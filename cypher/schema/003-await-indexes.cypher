// After the constraints and indexes are created: wait (up to 300 s) until every index is ONLINE,
// so that the first queries find their indexes populated (a new index on a large store takes time).
CALL db.awaitIndexes(300);
