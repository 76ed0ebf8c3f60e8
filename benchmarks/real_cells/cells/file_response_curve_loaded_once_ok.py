# ruff: noqa
"""A night's spectra flux-calibrated with the response curve read once: np.loadtxt of the two-column curve, np.fromfile of the whole binary stack, one division broadcast over every spectrum.

source: spectroscopy and astronomy reduction notebooks (the sensitivity curve loaded once at the top,
        the extracted spectra kept as one binary array, calibrated = spectra / response, then
        continuum and emission-line fluxes for every spectrum at once)
family: file-read
kind: healthy
verdict: AIP907|none
rewrite: no: each file is read once, and the calibration is whole-array work
size: 4,000 spectra of 2,048 pixels (32 MB of float32), a response file of 2,048 rows
scaled: no
kernel: data
"""
# %% setup
import numpy as np
from cell_data import temp_dir

rng = np.random.default_rng(625)
n_spectra, n_pix = 4_000, 2_048
wavelength = np.linspace(3_800.0, 9_200.0, n_pix)
response = 0.2 + 0.8 * np.exp(-((wavelength - 6_000.0) / 1_900.0) ** 2)
folder = temp_dir()
response_path = folder / "response.csv"
np.savetxt(response_path, np.column_stack([wavelength, response]), delimiter=",", header="wavelength,response",
           comments="", fmt="%.6f")
line = np.exp(-((wavelength - 6_563.0) / 4.0) ** 2)
counts = (rng.uniform(50, 400, (n_spectra, 1)) * (1.0 + rng.uniform(0, 3, (n_spectra, 1)) * line)) * response
stack_path = folder / "spectra_f32.bin"
rng.poisson(counts).astype(np.float32).tofile(stack_path)
del counts
# %% cell
wl, resp = np.loadtxt(response_path, delimiter=",", skiprows=1, unpack=True)
spectra = np.fromfile(stack_path, dtype=np.float32).reshape(-1, len(wl))
calibrated = spectra / resp.astype(np.float32)
in_line = (wl > 6_540.0) & (wl < 6_586.0)
continuum = np.median(calibrated[:, ~in_line], axis=1, keepdims=True)
line_flux = ((calibrated[:, in_line] - continuum) * np.gradient(wl)[in_line].astype(np.float32)).sum(axis=1)
bright = np.argsort(line_flux)[-20:]
