-- +goose Up
-- The platform an admin command came from, beside the namespaced ids that
-- also carry it, so the audit log reads without parsing them.
ALTER TABLE admin_audit ADD COLUMN platform TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE admin_audit DROP COLUMN platform;
