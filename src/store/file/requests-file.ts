import type { TransitionResult, RequestRecord, RequestState } from '../../protocol/index.js';
import type { NewRequest, RequestFilter, RequestStore, Subscription, WatchProblem } from '../team-store.js';
import { fileLayout, type FileLocation } from './layout.js';
import { asError, lookOnChange } from '../../lib/index.js';
import { RequestJournal } from './request-journal.js';

/** The request store over `requests.jsonl` (request-journal.ts folds it). */
export class FileRequests implements RequestStore {
  private readonly journal: RequestJournal;

  constructor(location: FileLocation) {
    this.journal = new RequestJournal(fileLayout(location.root).requests);
  }

  async open(request: NewRequest): Promise<RequestRecord> {
    return this.journal.open(request);
  }

  async transition(requestId: string, to: RequestState, by: string, note?: string): Promise<TransitionResult> {
    return this.journal.transition(requestId, to, by, note);
  }

  async get(requestId: string): Promise<RequestRecord | undefined> {
    return this.journal.get(requestId);
  }

  async list(filter?: RequestFilter): Promise<RequestRecord[]> {
    return this.journal.list(filter);
  }

  async watch(listener: (records: RequestRecord[]) => void, onProblem: WatchProblem): Promise<Subscription> {
    return lookOnChange([this.journal.path], () => {
      let records: RequestRecord[];
      try {
        records = this.journal.list();
      } catch (error) {
        onProblem(asError(error));
        return;
      }
      listener(records);
    });
  }
}
