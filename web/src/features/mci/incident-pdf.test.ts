// The incident summary PDF, rendered with the app's fonts and read back as text: METHANE,
// the counts, each casualty, and a triage the responder overrode.
import { incidentCounts, triageState } from '@rescuelog/sync-protocol/mci/triage';
import { describe, expect, it } from 'vitest';
import { pdfPages, renderForTest } from '@/lib/pdf/report-test-kit';
import { incidentReport } from './incident-pdf';
import type { BoardRow, IncidentBoard } from './use-incident-board';

const INCIDENT_ID = '5d0c7a44-4a8e-4d3c-9a51-2f1f8d2b9c10';

function row(tag: string, id: string): BoardRow {
  const triage = triageState('YELLOW', [
    {
      id: `${id}-t`,
      mciCasualtyId: id,
      colour: 'GREY',
      triagedAt: '2026-12-08T10:05:00.000Z',
      previousTriageIds: [],
      responderName: 'Lindiwe Dube',
      method: 'START',
      proposedColour: 'RED',
    },
  ]);
  return {
    casualty: {
      id,
      mciIncidentId: INCIDENT_ID,
      tagNumber: tag,
      description: 'Crush injury, left leg',
    },
    tag,
    colour: triage.colour,
    triage,
    transported: false,
    assignedTo: null,
  };
}

describe('the incident summary PDF', () => {
  it('holds the METHANE report, the counts, the casualties and an overridden triage', async () => {
    const rows = [row('Q3-1', '9b0e4d52-57c1-4a3b-8a55-3f0c2d7e8a11')];
    const board: IncidentBoard = {
      incident: {
        id: INCIDENT_ID,
        incidentId: 'I-2612-7Q4M',
        incidentType: 'Bus crash',
        startedAt: '2026-12-08T10:00:00.000Z',
        endedAt: '2026-12-08T11:30:00.000Z',
        status: 'completed',
        majorIncident: true,
        hazards: 'Diesel spill',
      },
      rows,
      counts: incidentCounts(rows),
      responders: [],
    };
    const text = (await pdfPages(await renderForTest(incidentReport(board)))).join('\n');
    expect(text).toContain('Mass-casualty incident I-2612-7Q4M');
    expect(text).toContain('1:30:00');
    expect(text).toContain('Diesel spill');
    expect(text).toContain('Crush injury, left leg');
    expect(text).toMatch(/GREY\s+Expectant/);
    expect(text).toMatch(/Lindiwe Dube, START, proposed RED,\s+overridden/);
  });
});
