// Schema kg creates before every push: one uniqueness constraint per kg node label, on `id`.
// Every MERGE in nodes.cypher / relationships.cypher looks nodes up through these.
// Statements are separated by `;` and each runs in its own transaction (IF NOT EXISTS: idempotent).
CREATE CONSTRAINT kg_paper_id IF NOT EXISTS FOR (n:Paper) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT kg_concept_id IF NOT EXISTS FOR (n:Concept) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT kg_author_id IF NOT EXISTS FOR (n:Author) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT kg_venue_id IF NOT EXISTS FOR (n:Venue) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT kg_community_id IF NOT EXISTS FOR (n:Community) REQUIRE n.id IS UNIQUE;
CREATE INDEX kg_paper_year IF NOT EXISTS FOR (n:Paper) ON (n.year);
CREATE INDEX kg_paper_community IF NOT EXISTS FOR (n:Paper) ON (n.community);
CREATE INDEX kg_concept_name IF NOT EXISTS FOR (n:Concept) ON (n.name);
