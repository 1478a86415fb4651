/**
 * The bad-input corpus (bad-input-corpus.ts) over the built-in back end's route table and the test
 * gateway's paths: every route with every bad cookie and a hostile query, every POST with every bad
 * body. Part 1 of 3, each file with a workerd instance of its own (decision 153).
 */
import { badInputCorpus } from "./bad-input-corpus";

badInputCorpus(["backend", "sandbox"], { part: 1, of: 3 });
