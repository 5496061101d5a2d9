-- Up Migration
-- The kitchen feed's Redis keys now use the deployment name every shared-Redis key uses (the first signing key's id).
DROP TABLE kds_feed_namespace;
