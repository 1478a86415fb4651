/**
 * The bad-input corpus (bad-input-corpus.ts) over the site's pages and actions: every page of
 * app/routes/ with every bad cookie and a hostile query, every action with every bad body. Part 2
 * of 3, each file with a workerd instance of its own (decisions 153, 158).
 */
import { badInputCorpus } from "./bad-input-corpus";

badInputCorpus(["site"], { part: 2, of: 3 });
