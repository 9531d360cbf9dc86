-- The open pages of games that ended before their ending deleted them
-- (``GameRepo.drop_pages``) go now.
DELETE FROM hand_pages WHERE game_id NOT IN (SELECT id FROM games WHERE status = 'playing');
