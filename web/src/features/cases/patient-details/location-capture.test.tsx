import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { deviceOf, outbox, seedCase, storedCase, wipeDevice } from '../completed/case-test-kit';
import { LOCATE_TIMEOUT_MS } from '@/lib/geolocation';

const RESPONDER = makeUser({ id: 7, permissions: { newCase: true } });

type Success = (position: GeolocationPosition) => void;
type Failure = (error: GeolocationPositionError) => void;

/** navigator.geolocation as the device would answer; `answer` is called per request. */
function fakeGeolocation(answer: (success: Success, failure: Failure) => void): PositionOptions[] {
  const requests: PositionOptions[] = [];
  Object.defineProperty(navigator, 'geolocation', {
    configurable: true,
    value: {
      getCurrentPosition: (success: Success, failure: Failure, options: PositionOptions) => {
        requests.push(options);
        answer(success, failure);
      },
      watchPosition: () => 0,
      clearWatch: () => undefined,
    },
  });
  return requests;
}

function position(latitude: number, longitude: number, accuracy: number): GeolocationPosition {
  const coords = {
    latitude,
    longitude,
    accuracy,
    altitude: null,
    altitudeAccuracy: null,
    heading: null,
    speed: null,
  };
  return {
    coords: { ...coords, toJSON: () => coords },
    timestamp: Date.now(),
    toJSON: () => ({ coords }),
  } as GeolocationPosition;
}

function positionError(code: 1 | 2 | 3): GeolocationPositionError {
  return {
    code,
    message: 'fake',
    PERMISSION_DENIED: 1,
    POSITION_UNAVAILABLE: 2,
    TIMEOUT: 3,
  } as GeolocationPositionError;
}

afterEach(async () => {
  Reflect.deleteProperty(navigator, 'geolocation');
  await wipeDevice(RESPONDER);
});

async function coordinateUpserts(id: string) {
  return (await outbox())
    .filter(
      (e) => e.mutation.name === 'case.upsert' && (e.mutation.args as { id: string }).id === id,
    )
    .map((e) => (e.mutation.args as { fields: Record<string, unknown> }).fields)
    .filter((f) => 'incidentLatitude' in f || 'incidentLongitude' in f);
}

describe('GPS capture on Patient Details', () => {
  it('asks for a high-accuracy fix with a timeout, shows a spinner, then stores the position and its accuracy', async () => {
    let reply: Success | null = null;
    const requests = fakeGeolocation((success) => {
      reply = success;
    });
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/patient-details/${caseId}`);

    await user.click(await screen.findByRole('button', { name: 'Use my location' }));
    expect(requests).toEqual([
      expect.objectContaining({ enableHighAccuracy: true, timeout: LOCATE_TIMEOUT_MS }),
    ]);
    const locating = screen.getByRole('button', { name: 'Finding your position…' });
    expect(locating).toBeDisabled();
    expect(locating).toHaveAttribute('aria-busy', 'true');

    (reply as Success | null)?.(position(-33.924869, 18.424055, 12.4));
    expect(
      await screen.findByText(/Position captured, accurate to about 12 m\./),
    ).toBeInTheDocument();
    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({
        incidentLatitude: -33.924869,
        incidentLongitude: 18.424055,
      }),
    );
    expect(await coordinateUpserts(id)).toEqual([
      { incidentLatitude: -33.924869, incidentLongitude: 18.424055 },
    ]);
    // The typed boxes show the captured position; the button offers to update it.
    await waitFor(() => expect(screen.getByLabelText('Latitude')).toHaveValue('-33.924869'));
    expect(screen.getByLabelText('Longitude')).toHaveValue('18.424055');
    expect(screen.getByRole('button', { name: 'Update with my location' })).toBeEnabled();
  });

  it('says when the fix is imprecise', async () => {
    fakeGeolocation((success) => success(position(-26.2041, 28.0473, 850)));
    deviceOf(RESPONDER);
    const { caseId } = await seedCase({});
    const { user } = renderApp(`/patient-details/${caseId}`);
    await user.click(await screen.findByRole('button', { name: 'Use my location' }));
    expect(
      await screen.findByText(/accurate to about 850 m\. That is not very precise/),
    ).toBeInTheDocument();
  });

  it('explains a denied permission, a missing fix and a timeout, and saves nothing', async () => {
    let code: 1 | 2 | 3 = 1;
    fakeGeolocation((_success, failure) => failure(positionError(code)));
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/patient-details/${caseId}`);

    await user.click(await screen.findByRole('button', { name: 'Use my location' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /Location permission is off for this app\. Allow location .* or type the coordinates below\./,
    );

    code = 2;
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not work out its position/);

    code = 3;
    await user.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/No position within 60 seconds/);

    expect(await coordinateUpserts(id)).toEqual([]);
    const stored = await storedCase(id);
    expect(stored?.incidentLatitude ?? null).toBeNull();
    expect(stored?.incidentLongitude ?? null).toBeNull();
  });

  it('says so on a device without geolocation', async () => {
    deviceOf(RESPONDER);
    const { caseId } = await seedCase({});
    const { user } = renderApp(`/patient-details/${caseId}`);
    await user.click(await screen.findByRole('button', { name: 'Use my location' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This browser cannot give the device's position.",
    );
  });

  it('accepts typed coordinates in range (a comma for the decimal point too) and refuses others', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/patient-details/${caseId}`);

    await user.type(await screen.findByLabelText('Latitude'), '-33,9249');
    await user.type(screen.getByLabelText('Longitude'), '200');
    await user.tab();
    expect(await screen.findByText('Longitude must be between -180 and 180')).toBeInTheDocument();
    await waitFor(async () => expect((await storedCase(id))?.incidentLatitude).toBe(-33.9249));
    expect((await storedCase(id))?.incidentLongitude).toBeUndefined();

    const longitude = screen.getByLabelText('Longitude');
    await user.clear(longitude);
    await user.type(longitude, 'east');
    await user.tab();
    expect(await screen.findByText(/Longitude: enter decimal degrees/)).toBeInTheDocument();

    await user.clear(longitude);
    await user.type(longitude, '18.4241');
    await user.tab();
    await waitFor(async () => expect((await storedCase(id))?.incidentLongitude).toBe(18.4241));
    expect(await coordinateUpserts(id)).toEqual([
      { incidentLatitude: -33.9249 },
      { incidentLongitude: 18.4241 },
    ]);

    await user.click(screen.getByRole('button', { name: /^Clear position/ }));
    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({
        incidentLatitude: null,
        incidentLongitude: null,
      }),
    );
  });

  it('flags a northern latitude (a lost minus sign in South Africa)', async () => {
    deviceOf(RESPONDER);
    const { caseId } = await seedCase({ incidentLatitude: 33.92, incidentLongitude: 18.42 });
    renderApp(`/patient-details/${caseId}`);
    expect(
      await screen.findByText(/north of the equator: check the minus sign/),
    ).toBeInTheDocument();
  });
});
